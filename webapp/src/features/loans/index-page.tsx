/**
 * /loan/index: the loan products (for a member `GET /api/loan/products`, with the most they may
 * borrow now and why they may not apply; for a visitor the public `GET /api/loan/rules`), the
 * member's credit score with its factors, and the apply form of the product picked (`?product=`).
 *
 * @module
 */

import { Grid, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useGetLoanProducts, useGetLoanRules } from '../../api/generated/loans/loans';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useIsLoggedIn } from '../../lib/session';
import { ApplyForm } from './apply-form';
import { CreditCard } from './credit-card';
import { LoansFrame, LoginPrompt, QueryState } from './parts';
import { ProductCard } from './product-card';

const GRID = { base: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))', xl: 'repeat(3, minmax(0, 1fr))' };

function VisitorProducts() {
  const { t } = useTranslation();
  const rules = useGetLoanRules();
  return (
    <Stack gap="4">
      <LoginPrompt />
      {!rules.data ? (
        <QueryState failed={rules.isError} onRetry={() => void rules.refetch()} />
      ) : rules.data.products.length === 0 ? (
        <Text color="fg.muted">{t('loans.empty.products')}</Text>
      ) : (
        <Grid gap="4" templateColumns={GRID}>
          {rules.data.products.map((product) => (
            <ProductCard key={product.id} product={product} />
          ))}
        </Grid>
      )}
    </Stack>
  );
}

function MemberProducts() {
  const { t } = useTranslation();
  const offers = useGetLoanProducts();
  const [search, setSearch] = useSearchParams();
  const picked = Number(search.get('product'));
  const offer = offers.data?.find((o) => o.product.id === picked);
  const pick = (id: number) => {
    setSearch({ product: String(id) }, { replace: true });
    requestAnimationFrame(() => document.getElementById('loan-apply-heading')?.scrollIntoView({ behavior: 'smooth', block: 'start' }));
  };
  return (
    <Grid gap="4" templateColumns={{ base: 'minmax(0, 1fr)', lg: 'minmax(0, 2fr) minmax(0, 1fr)' }} alignItems="start">
      <Stack gap="4" minW="0">
        {!offers.data ? (
          <QueryState failed={offers.isError} onRetry={() => void offers.refetch()} />
        ) : offers.data.length === 0 ? (
          <Text color="fg.muted">{t('loans.empty.products')}</Text>
        ) : (
          <Grid gap="4" templateColumns={{ base: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' }}>
            {offers.data.map((o) => (
              <ProductCard key={o.product.id} product={o.product} offer={o} selected={o.product.id === picked} onApply={() => pick(o.product.id)} />
            ))}
          </Grid>
        )}
        {offer && <ApplyForm key={offer.product.id} offer={offer} />}
      </Stack>
      <CreditCard />
    </Grid>
  );
}

/** The products and apply screen. */
export function IndexPage() {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  useDocumentTitle(t('loans.titles.index'));
  return (
    <LoansFrame section="index" title={t('loans.titles.index')} intro={t('loans.intro')}>
      {loggedIn ? <MemberProducts /> : <VisitorProducts />}
    </LoansFrame>
  );
}
