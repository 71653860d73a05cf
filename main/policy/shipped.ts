/** The compact policy that ships with the workbench (resources/models/web-policy; see its README). */
import { resourcePath } from '../paths.ts';

export const SHIPPED_POLICY_NAME = 'resources/models/web-policy';
export const SHIPPED_POLICY = resourcePath('models', 'web-policy');
