/**
 * The loan screens, one chunk, by path: /loan/index (products, credit score, apply) and /loan/order
 * (my applications and loans, a loan's detail and repayment). While open, the user channel's `loan`
 * (an application decided, a loan's status changed) and `loan_notice` (a reminder or an overdue
 * notice) messages refetch the loan reads and the notice is shown.
 *
 * @module
 */

import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  getGetCreditScoreQueryKey,
  getGetLoanDetailQueryKey,
  getGetLoanProductsQueryKey,
  getGetMyLoanApplicationsQueryKey,
  getGetMyLoansQueryKey,
} from '../../api/generated/loans/loans';
import { useCurrentUser } from '../../hooks/use-current-user';
import { invalidateOperations } from '../../lib/query-keys';
import { toaster } from '../../lib/toaster';
import { useUserPush } from '../../lib/user-push';
import { IndexPage } from './index-page';
import { OrderPage } from './order-page';
import { coinAmount, utcDay } from './parts';

/** Keeps the user channel open; loan messages refetch the loan reads. */
function LiveLoans() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user } = useCurrentUser();
  useUserPush(user?.user.userId ?? null, (message) => {
    if (message.type !== 'loan' && message.type !== 'loan_notice') return;
    const id = message.type === 'loan' ? message.data.applicationId : message.data.loanId;
    void invalidateOperations(queryClient, [
      getGetLoanProductsQueryKey(),
      getGetMyLoanApplicationsQueryKey(),
      getGetMyLoansQueryKey(),
      getGetLoanDetailQueryKey(id),
      getGetCreditScoreQueryKey(),
    ]);
    if (message.type === 'loan') {
      toaster.create({ type: 'info', title: t('loans.live.changed', { id, status: t(`loans.status.${message.data.status}`, { defaultValue: message.data.status }) }) });
    } else {
      toaster.create({
        type: message.data.kind === 'overdue' ? 'warning' : 'info',
        title: t(message.data.kind === 'overdue' ? 'loans.live.overdue' : 'loans.live.dueSoon', { id, amount: coinAmount(message.data.amount, message.data.coin), date: utcDay(message.data.dueTime) }),
      });
    }
  });
  return null;
}

/** The loan screen of `path`. */
export function LoansPage({ path }: { path: string }) {
  return (
    <>
      <LiveLoans />
      {path === '/loan/order' ? <OrderPage /> : <IndexPage />}
    </>
  );
}
