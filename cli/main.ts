#!/usr/bin/env node
import v8 from 'node:v8';
import { PROCESS_IO } from './cli-io.js';
import { runCli } from './run-cli.js';

// Once V8's optimizing tier has compiled the shell parser's wasm, this process takes seconds to exit after its work
// is done, so `serve` could not end within a second of stdin EOF or SIGTERM. The baseline tier parses a command fast
// enough; the flag is for this process, never for a host embedding the library.
v8.setFlagsFromString('--liftoff-only');

process.exitCode = await runCli(process.argv.slice(2), PROCESS_IO);
