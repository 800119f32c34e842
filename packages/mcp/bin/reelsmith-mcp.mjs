#!/usr/bin/env node
// The workspace packages ship TypeScript sources (as the server's entries do): tsx loads them.
import { register } from 'tsx/esm/api';

register();
await import('../src/stdio-main.ts');
