/**
 * Step-up re-authentication, built once for every sensitive change of the account centre.
 *
 * A change (binding a contact, 2FA, fund password, anti-phishing code, API keys) may fail with
 * `400` and `data.reason === "reauth_required"`. `useReauth()` returns `withReauth(action)`: it
 * runs the action and, on that failure, opens the dialog that asks for the login password and the
 * second factor (the authenticator code when 2FA is on, else a security code sent to the user),
 * confirms them with `member/reauth` and runs the action again. Closing the dialog says 'Action
 * cancelled by user' (an info toast, spec section 8) and rejects with `ReauthCancelledError`, which
 * forms then ignore.
 *
 * @module
 */

import { Button, Dialog, Portal, Stack, Text } from '@chakra-ui/react';
import { createContext, type ReactNode, useCallback, useContext, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reauth } from '../../../api/generated/security/security';
import { useCurrentUser } from '../../../hooks/use-current-user';
import { SECOND_FACTOR_REASONS, SecondFactorField, secondFactorOf, secondFactorProblem } from '../../../components/second-factor-field';
import { type FormErrors, FormError, PasswordField } from '../components/form';
import { SILENT, errorInfo, isReauthRequired, serverFieldErrors, useApiHead } from '../lib/api';
import { i18n } from '../../../i18n';
import { toaster } from '../../../lib/toaster';

/** The user closed the dialog instead of confirming. */
export class ReauthCancelledError extends Error {
  constructor() {
    super(i18n.t('errors.actionCancelled'));
    this.name = 'ReauthCancelledError';
  }
}

/** Whether `error` is the user closing the re-authentication dialog. */
export function isReauthCancelled(error: unknown): boolean {
  return error instanceof ReauthCancelledError;
}

interface Pending {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Asks the user to confirm; resolves once confirmed (concurrent asks share one dialog). */
type RequestReauth = () => Promise<void>;

const ReauthContext = createContext<RequestReauth | null>(null);

/** Runs `action`; when it needs re-authentication, asks for it and runs it once more. */
export type WithReauth = <T>(action: () => Promise<T>) => Promise<T>;

/** `withReauth(action)` (see the module comment). */
export function useReauth(): WithReauth {
  const request = useContext(ReauthContext);
  return useCallback(
    async <T,>(action: () => Promise<T>): Promise<T> => {
      try {
        return await action();
      } catch (error) {
        if (!request || !isReauthRequired(error)) throw error;
        await request();
        return action();
      }
    },
    [request],
  );
}

/** Provides `useReauth()` to the account centre and renders its dialog. */
export function ReauthProvider({ children }: { children: ReactNode }) {
  const pendingRef = useRef<Pending | null>(null);
  const [open, setOpen] = useState(false);

  const request = useCallback<RequestReauth>(() => {
    if (pendingRef.current) return pendingRef.current.promise;
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    pendingRef.current = { promise, resolve, reject };
    setOpen(true);
    return promise;
  }, []);

  const finish = useCallback((confirmed: boolean) => {
    const pending = pendingRef.current;
    pendingRef.current = null;
    setOpen(false);
    if (confirmed) {
      pending?.resolve();
      return;
    }
    const cancelled = new ReauthCancelledError();
    if (pending) toaster.create({ id: 'action-cancelled', type: 'info', title: cancelled.message });
    pending?.reject(cancelled);
  }, []);

  return (
    <ReauthContext.Provider value={request}>
      {children}
      <ReauthDialog open={open} onConfirmed={() => finish(true)} onCancel={() => finish(false)} />
    </ReauthContext.Provider>
  );
}

function ReauthDialog({ open, onConfirmed, onCancel }: { open: boolean; onConfirmed: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(event) => {
        if (!event.open) onCancel();
      }}
      placement="center"
      size="sm"
      closeOnInteractOutside={false}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content rounded="xl" mx="4">
            <Dialog.Header>
              <Dialog.Title>{t('account.reauth.title')}</Dialog.Title>
            </Dialog.Header>
            {/* Mounted only while open, so every opening starts with an empty form. */}
            {open && <ReauthForm onConfirmed={onConfirmed} onCancel={onCancel} />}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

function ReauthForm({ onConfirmed, onCancel }: { onConfirmed: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const head = useApiHead();
  const { user } = useCurrentUser();
  const factor = secondFactorOf(user);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const found: FormErrors = {};
    if (password === '') found.password = t('account.errors.passwordRequired');
    const problem = secondFactorProblem(t, code);
    if (problem) found[factor] = problem;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await reauth(head, { password, [factor]: code }, SILENT);
      onConfirmed();
    } catch (error) {
      const info = errorInfo(error);
      const codeReasons = Object.fromEntries(SECOND_FACTOR_REASONS.map((reason) => [reason, factor]));
      setErrors(serverFieldErrors(error, ['password', factor], { wrong_password: 'password', ...codeReasons }, info?.message ?? t('account.errors.generic')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Dialog.Body>
        <Stack gap="4">
          <Text color="fg.muted" fontSize="sm">
            {t('account.reauth.hint')}
          </Text>
          <PasswordField
            label={t('account.fields.loginPassword')}
            value={password}
            onChange={(event) => {
              setPassword(event.currentTarget.value);
              setErrors(({ password: _, ...rest }) => rest);
            }}
            error={errors.password}
            autoComplete="current-password"
            autoFocus
            required
          />
          <SecondFactorField
            user={user}
            value={code}
            onChange={setCode}
            error={errors[factor]}
            onError={(message) => setErrors(({ [factor]: _, ...rest }) => (message ? { ...rest, [factor]: message } : rest))}
          />
          <FormError message={errors.form} />
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Button variant="outline" onClick={onCancel} type="button">
          {t('account.actions.cancel')}
        </Button>
        <Button type="submit" colorPalette="brand" loading={busy}>
          {t('account.reauth.confirm')}
        </Button>
      </Dialog.Footer>
    </form>
  );
}
