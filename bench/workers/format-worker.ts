// The design's own limit for read_file: a worker that formats the text the main thread read, with read_file's formatter.
import { parentPort } from 'node:worker_threads';
import { formatReadResult } from '../../src/text/read-format.js';

interface FormatRequest {
  text: string;
  path: string;
  maxChars: number;
}

parentPort?.on('message', ({ text, path, maxChars }: FormatRequest) => {
  const formatted = formatReadResult(text, { path, maxChars });
  parentPort?.postMessage({ text: formatted.text, totalLines: formatted.totalLines });
});
parentPort?.postMessage('ready');
