/**
 * How every reader of a file or request says what failed schema validation: the first issue, as
 * `field a.b.0: message` (`whole` names the thing itself when the issue is at its root). One
 * wording, so an error from any file format reads the same and tests can match it.
 */
import type { z } from 'zod';

export function fieldIssue(error: z.ZodError, whole = '(root)'): string {
  const issue = error.issues[0];
  return `field ${issue.path.map(String).join('.') || whole}: ${issue.message}`;
}
