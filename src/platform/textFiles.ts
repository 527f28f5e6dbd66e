/**
 * Node's file system as the readers of other agents' hook files need it (agentHooks/hookFiles.ts takes
 * it as a port, so that layer stays free of Node): both hosts pass this one.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';

export const nodeTextFiles = {
  exists: (path: string): boolean => existsSync(path),
  list: (folder: string): string[] => readdirSync(folder),
  read: (path: string): string => readFileSync(path, 'utf8'),
};
