import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const FRAMEWORKS = ['ai', '@langchain/core', '@openai/agents', '@anthropic-ai/claude-agent-sdk'];

describe('the toolwarden/adapters export', () => {
  it('resolves from the built package, with every adapter', () => {
    const script = "import('toolwarden/adapters').then((m) => process.stdout.write(Object.keys(m).sort().join(',')))";
    const names = execFileSync(process.execPath, ['-e', script], { cwd: REPO, encoding: 'utf8' }).split(',');
    expect(names).toEqual(expect.arrayContaining(['aiSdkTools', 'anthropicTools', 'claudeAgentMcpServer', 'langchainTools', 'openAIAgentsTools', 'openAITools', 'runAnthropicToolUse', 'runOpenAIToolCall']));
  });

  it('imports no framework package statically, so a host installs only the frameworks it uses', () => {
    const dir = path.join(REPO, 'dist/runtime/adapters');
    for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.js'))) {
      const code = fs.readFileSync(path.join(dir, file), 'utf8');
      for (const framework of FRAMEWORKS) {
        expect(code, `${file} imports ${framework}`).not.toMatch(new RegExp(`^import[^;]*from '${framework}(/[^']*)?';`, 'm'));
      }
    }
  });
});
