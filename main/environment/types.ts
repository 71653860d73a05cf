/** Plain-data types of the browser environment: what an agent sees and what a step returns. */

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One entry of the numbered element list. `id` is also written into the page as `data-lab-id`. */
export interface PageElement {
  id: string;
  role: string;
  name: string;
  tag: string;
  value?: string;
  checked?: boolean | 'mixed';
  selected?: boolean;
  disabled?: boolean;
  expanded?: boolean;
  required?: boolean;
  invalid?: boolean;
  /** Option labels of a <select>, so a policy can write select_option without opening it. */
  options?: string[];
  /** CSS pixels relative to the viewport's top-left corner. */
  box: Box;
  /** Rendered with a non-empty box and not hidden by style. */
  visible: boolean;
  /** Its box intersects the viewport. */
  inViewport: boolean;
}

/** Named errors. Every step that fails ends with exactly one of these. */
export type StepErrorCode =
  | 'malformed_action'
  | 'unknown_element'
  | 'element_not_interactable'
  | 'invalid_argument'
  /** The action is in an action set this environment does not allow (see action-sets.ts). */
  | 'action_not_allowed'
  | 'action_failed'
  | 'step_timeout'
  | 'page_hang'
  | 'renderer_crashed'
  | 'dialog_opened'
  | 'popup_blocked'
  | 'navigation_failed'
  | 'navigation_blocked';

export interface StepError {
  code: StepErrorCode;
  message: string;
}

export interface Screenshot {
  /** PNG bytes with set-of-marks boxes drawn (when marks were requested). */
  png: Buffer;
  width: number;
  height: number;
}

export interface Observation {
  url: string;
  title: string;
  instruction: string;
  elements: PageElement[];
  screenshot?: Screenshot;
  lastActionError: StepError | null;
  /** Messages the agent sent with send_msg_to_user, in order. */
  messages: string[];
}

export interface StepTiming {
  actionMs: number;
  settleMs: number;
  observeMs: number;
  totalMs: number;
  /** Whether the step loaded a new document in the main frame (a link, a form): such steps cost a load, others a DOM update. */
  navigated?: boolean;
}

import type { StepActivity } from './page-activity.ts';

export interface StepResult {
  observation: Observation;
  error: StepError | null;
  timing: StepTiming;
  /** True when the action ends the episode (send_msg_to_user, report_infeasible) or the page is lost. */
  done: boolean;
  /** What the page logged and requested since the previous observation (bounded; see page-activity.ts). */
  activity: StepActivity;
}
