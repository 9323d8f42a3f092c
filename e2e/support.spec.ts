/**
 * The live support chat end to end: a visitor opens the chat from the footer (the widget is not on
 * the page before), leaves an e-mail and writes; an operator sees the conversation in the /admin
 * support inbox and answers; the visitor reads the answer live, without a reload. The conversation
 * survives a language switch and a reload.
 *
 * @module
 */

import { expect, t, test } from './fixtures';
import { newOperator } from './operator';

const en = (key: string, params?: Record<string, string | number>) => t('en', key, params);

test('a visitor writes, an operator answers in /admin, the visitor reads it live', async ({ visitor, browser, baseURL, request }) => {
  await visitor.goto('/home/index');
  await expect(visitor.getByRole('dialog', { name: en('chat.title') })).toHaveCount(0);
  await visitor.getByRole('contentinfo').getByRole('button', { name: en('menu.onlineCustomer') }).click();
  const chat = visitor.getByRole('dialog', { name: en('chat.title') });
  await expect(chat).toBeVisible();
  const email = `visitor-${Date.now()}@example.com`;
  await chat.getByLabel(en('support.email')).fill(email);
  await chat.getByRole('button', { name: en('support.start') }).click();
  const question = `Where is my deposit? ${Date.now()}`;
  await chat.getByRole('textbox', { name: en('support.message') }).fill(question);
  await chat.getByRole('button', { name: en('support.send') }).click();
  // Sent: the box is empty again (until then the question is in it as well as in the thread).
  await expect(chat.getByRole('textbox', { name: en('support.message') })).toHaveValue('');
  await expect(chat.getByText(question)).toBeVisible();

  const operator = await newOperator(browser, baseURL!, request);
  await operator.goto('/admin?queue=support');
  await operator.getByRole('button', { name: email }).click();
  const thread = operator.getByTestId('support-thread');
  await expect(thread.getByText(question)).toBeVisible();
  const reply = `It is on its way. ${Date.now()}`;
  await thread.getByRole('textbox', { name: en('support.admin.answer') }).fill(reply);
  await thread.getByRole('button', { name: en('support.admin.answer') }).click();
  await expect(thread.getByText(reply)).toBeVisible();

  // Live: the answer arrives on the visitor's open chat without a reload.
  await expect(chat.getByText(reply)).toBeVisible();

  // A language switch and a reload keep the conversation.
  await visitor.reload();
  await visitor.getByRole('contentinfo').getByRole('button', { name: en('menu.onlineCustomer') }).click();
  await expect(visitor.getByRole('dialog', { name: en('chat.title') }).getByText(reply)).toBeVisible();
  await operator.context().close();
});
