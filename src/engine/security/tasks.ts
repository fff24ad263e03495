/** Security tasks: permissions read, password security set and removed, usage rights removed. */
import { readPermissions, removePasswordPermissions, removeUsageRights, setPasswordPermissions } from './permissions.js';

export const securityTasks = { readPermissions, setPasswordPermissions, removePasswordPermissions, removeUsageRights };
