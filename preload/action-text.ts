/**
 * How an action reads to a person (`click [23] link "Previous day"`): one function the CLI, the
 * server and the renderer all use, so a step reads the same everywhere. The renderer takes it from
 * here (the contract's floor) and never from main/; it is pure (the action grammar and the
 * element list, no Node, no browser).
 */
export { describeAction } from '../main/environment/action-target.ts';
