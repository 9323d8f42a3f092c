/**
 * The support chat's calls, chosen by who is calling: the generated client's customer calls
 * (`/api/support/*` for a user, `/api/support/visitor/*` with the `supportToken` header for a
 * visitor) and operator calls (`/api/admin/support/*`). The chat keeps its thread in its own state
 * (the live channel adds to it), so it calls the generated functions rather than cached queries.
 *
 * @module
 */

import {
  adminSupportAssign,
  adminSupportClose,
  adminSupportConversations,
  adminSupportRead,
  adminSupportSend,
  adminSupportThread,
} from '../api/generated/admin-support/admin-support';
import { uploadFile } from '../api/generated/kyc/kyc';
import type { AdminSupportConversation, SupportQueue, SupportSent, SupportThread } from '../api/generated/model';
import {
  supportRead,
  supportSend,
  supportThread,
  supportVisitorRead,
  supportVisitorSend,
  supportVisitorStart,
  supportVisitorThread,
} from '../api/generated/support/support';
import type { ChatConversation, ChatIdentity } from './support-chat';

/** A conversation and a page of its messages. */
export type ChatThread = SupportThread;
/** A message stored and its conversation after it. */
export type ChatSent = SupportSent;
/** A conversation in an operator's queue. */
export type InboxRow = AdminSupportConversation;
/** An operator queue. */
export type InboxQueue = SupportQueue;

/** Reads that fail quietly (the thread is read again on reconnect). */
const SILENT = { silent: true };

/** Opens a visitor's conversation for `email`: its token. */
export function startVisitor(email: string): Promise<{ conversation: ChatConversation; token: string }> {
  return supportVisitorStart({ email });
}

/** The customer's conversation and its latest messages (404 when a user never wrote). */
export function fetchThread(identity: ChatIdentity, before?: number): Promise<ChatThread> {
  const params = before ? { before } : undefined;
  return identity.kind === 'visitor'
    ? supportVisitorThread({ supportToken: identity.token }, params, SILENT)
    : supportThread(params, SILENT);
}

/** Sends a customer's message. */
export function sendAsCustomer(identity: ChatIdentity, body: string, fileId?: number): Promise<ChatSent> {
  const message = fileId ? { body, fileId } : { body };
  return identity.kind === 'visitor' ? supportVisitorSend(message, { supportToken: identity.token }) : supportSend(message);
}

/** Marks the operators' messages read. */
export function markRead(identity: ChatIdentity): Promise<ChatConversation> {
  return identity.kind === 'visitor' ? supportVisitorRead({ supportToken: identity.token }, SILENT) : supportRead(SILENT);
}

/** Uploads an image through the checked upload path: its file id. */
export async function uploadImage(file: File): Promise<number> {
  const uploaded = await uploadFile({ file });
  return uploaded.fileId;
}

/** One page of an operator queue. */
export function fetchInbox(queue: InboxQueue): Promise<{ total: number; records: InboxRow[] }> {
  return adminSupportConversations({ queue, pageSize: 100 }, SILENT);
}

/** A conversation's messages for an operator. */
export function fetchOperatorThread(id: number): Promise<ChatThread> {
  return adminSupportThread(id, undefined, SILENT);
}

/** An operator's action on conversation `id`. */
export function operatorAction(id: number, action: 'assign' | 'read' | 'close'): Promise<ChatConversation> {
  const call = { assign: adminSupportAssign, read: adminSupportRead, close: adminSupportClose }[action];
  return call(id);
}

/** An operator's answer. */
export function sendAsOperator(id: number, body: string): Promise<ChatSent> {
  return adminSupportSend(id, { body });
}
