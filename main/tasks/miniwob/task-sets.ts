/**
 * Named sets of MiniWoB++ tasks that published results average over.
 *
 * GUR56: the 56 tasks of Gur et al., "Understanding HTML with Large Language Models" (2022,
 * arXiv:2210.03945), over which WebN-T5 reports its mean; WebGUM (Furuta et al., 2023,
 * arXiv:2305.11854) and HTML-T5 (Gur et al., "A Real-World WebAgent with Planning, Long Context
 * Understanding, and Program Synthesis", 2023, arXiv:2307.12856) report their means over the same
 * 56 with per-task tables. Transcribed from those papers' per-task tables, and checked name for name
 * (2026-12-07) against the 56-task list another evaluation harness keeps for the same comparison:
 * `webgum_tasks` in ServiceNow/AgentLab, src/agentlab/experiments/task_collections.py. All 56 are
 * task pages of the MiniWoB++ repository.
 */
export const GUR56_TASKS: readonly string[] = [
  'book-flight', 'choose-date', 'choose-date-easy', 'choose-date-medium', 'choose-list',
  'click-button', 'click-button-sequence', 'click-checkboxes', 'click-checkboxes-large', 'click-checkboxes-soft',
  'click-checkboxes-transfer', 'click-collapsible', 'click-collapsible-2', 'click-color', 'click-dialog',
  'click-dialog-2', 'click-link', 'click-menu', 'click-option', 'click-pie',
  'click-scroll-list', 'click-shades', 'click-shape', 'click-tab', 'click-tab-2',
  'click-tab-2-hard', 'click-test', 'click-test-2', 'click-widget', 'count-shape',
  'email-inbox', 'email-inbox-forward-nl', 'email-inbox-forward-nl-turk', 'email-inbox-nl-turk', 'enter-date',
  'enter-password', 'enter-text', 'enter-text-dynamic', 'enter-time', 'focus-text',
  'focus-text-2', 'grid-coordinate', 'guess-number', 'identify-shape', 'login-user',
  'login-user-popup', 'multi-layouts', 'multi-orderings', 'navigate-tree', 'search-engine',
  'social-media', 'social-media-all', 'social-media-some', 'tic-tac-toe', 'use-autocomplete',
  'use-spinner',
];
