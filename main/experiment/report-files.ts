/**
 * An experiment's report on disk: report.json (./report.ts builds it) and report.html beside it
 * (./report-html.ts renders it). Apart from both so that neither imports the other.
 */
import { writeFileAtomic } from '../store/json-file.ts';
import type { ExperimentFolder } from './folder.ts';
import { buildReport, type ExperimentReport } from './report.ts';
import { renderReportHtml } from './report-html.ts';
import { experimentFiles } from '../store/lab-files.ts';

export async function writeReport(folder: ExperimentFolder, browserKind: string): Promise<{ report: ExperimentReport; reportPath: string; htmlPath: string }> {
  const report = await buildReport(folder, browserKind);
  const { report: reportPath, reportHtml: htmlPath } = experimentFiles(folder.dir);
  writeFileAtomic(reportPath, JSON.stringify(report, null, 2) + '\n');
  writeFileAtomic(htmlPath, await renderReportHtml(report));
  return { report, reportPath, htmlPath };
}
