import { describe, expect, it } from 'vitest';
import { ToolwardenError } from '../../src/errors.js';
import type { ApprovalRequest } from '../../runtime/policy/policy-gate.js';
import { ApprovalInbox } from '../../runtime/serve/approvals/approval-inbox.js';
import { ServedApprovals } from '../../runtime/serve/approvals/served-approvals.js';

function request(over: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return { sessionId: 's1', user: 'alice', tool: 'write_file', args: { path: 'a.md' }, paths: ['a.md'], reason: "write_file asks by session rule write_file: 'ask'", dangerous: false, options: ['allow', 'deny', 'allow-always'], signal: new AbortController().signal, ...over };
}

const settle = async (inbox: ApprovalInbox): Promise<string> => {
  for (;;) {
    const item = inbox.list()[0];
    if (item !== undefined) return item.id;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe('ServedApprovals with the inbox only (no MCP server attached)', () => {
  it('the inbox answer is the answer', async () => {
    const inbox = new ApprovalInbox();
    const approvals = new ServedApprovals(10_000, () => undefined, inbox);
    const answer = approvals.approve(request());
    inbox.answer(await settle(inbox), 'allow-always');
    await expect(answer).resolves.toBe('allow-always');
  });

  it("the time left shown is the call's own when its deadline comes first", async () => {
    const inbox = new ApprovalInbox();
    const approvals = new ServedApprovals(10_000, () => undefined, inbox);
    const answer = approvals.approve(request({ callTimeLeftMs: 1_500 }));
    await settle(inbox);
    const item = inbox.list()[0]!;
    expect(item.deadline - item.askedAt).toBe(1_500);
    expect(item.endsBy).toBe('toolTimeoutMs');
    inbox.answer(item.id, 'deny');
    await expect(answer).rejects.toMatchObject({ code: 'APPROVAL_DENIED', message: expect.stringContaining('answered deny by the dashboard') });
  });

  it("the time left shown is the approval's when the call has longer", async () => {
    const inbox = new ApprovalInbox();
    const approvals = new ServedApprovals(10_000, () => undefined, inbox);
    const answer = approvals.approve(request({ callTimeLeftMs: 900_000 }));
    await settle(inbox);
    const item = inbox.list()[0]!;
    expect({ waits: item.deadline - item.askedAt, endsBy: item.endsBy }).toEqual({ waits: 10_000, endsBy: 'approvalTimeoutMs' });
    inbox.answer(item.id, 'deny');
    await expect(answer).rejects.toMatchObject({ code: 'APPROVAL_DENIED' });
  });

  it("the call ending (its deadline, an abort, a close) takes the entry down and rejects with the call's reason", async () => {
    const inbox = new ApprovalInbox();
    const approvals = new ServedApprovals(10_000, () => undefined, inbox);
    const call = new AbortController();
    const answer = approvals.approve(request({ signal: call.signal }));
    const id = await settle(inbox);
    call.abort(new ToolwardenError('SESSION_CLOSED', 'the session closed'));
    await expect(answer).rejects.toMatchObject({ code: 'SESSION_CLOSED' });
    expect(inbox.list()).toEqual([]);
    expect(inbox.answer(id, 'allow')).toBe(false);
  });

  it('without the inbox and without a client that can elicit, nobody can answer: denied at once, naming why', async () => {
    const approvals = new ServedApprovals(10_000, () => undefined);
    await expect(approvals.approve(request())).rejects.toMatchObject({ code: 'APPROVAL_DENIED', message: expect.stringContaining('no elicitation capability') });
  });

  it('a call already ended when it asks puts nothing in the inbox', async () => {
    const inbox = new ApprovalInbox();
    const approvals = new ServedApprovals(10_000, () => undefined, inbox);
    const ended = AbortSignal.abort(new ToolwardenError('TIMEOUT', 'late'));
    await expect(approvals.approve(request({ signal: ended }))).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(inbox.list()).toEqual([]);
  });
});
