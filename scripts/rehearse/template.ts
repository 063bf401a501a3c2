/** INTERIM until scripts/rehearse/iam/ lands (its loadTemplate). */
import { readFileSync } from 'node:fs';
import type { Template } from './interim-lookup';

export const loadTemplate = (path: string): Template => JSON.parse(readFileSync(path, 'utf8')) as Template;
