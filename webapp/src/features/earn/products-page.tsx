/**
 * /pledge/index (staking) and /defis/index (DeFi liquidity mining): the products of a kind as
 * cards (`POST /api/{type}/list`, public), each with its rates, term, limits, quota progress and a
 * subscribe button that opens /pledge/add?id= — disabled with the reason when it cannot be bought.
 *
 * @module
 */

import { Grid, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useListEarnProducts } from '../../api/generated/earn/earn';
import { ProductListType } from '../../api/generated/model';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { subscribeBlock } from './lib/availability';
import { EarnFrame, QueryState } from './parts';
import { ProductCard } from './product-card';
import { useHolder } from './use-holder';

/** The most products one page lists. */
export const PRODUCTS_PAGE = 100;

/** The cards of `type`'s products (`tab`: a wealth product's tab); links go to `hrefOf(id)`. */
export function ProductGrid({ type, tab, hrefOf }: { type: ProductListType; tab?: 'yield' | 'member' | 'standard'; hrefOf: (id: number) => string }) {
  const { t } = useTranslation();
  const products = useListEarnProducts(type, { pageSize: PRODUCTS_PAGE, ...(tab ? { tab } : {}) });
  const { holderOf } = useHolder();
  if (!products.data) return <QueryState failed={products.isError} onRetry={() => void products.refetch()} />;
  if (products.data.records.length === 0) {
    return (
      <Text color="fg.muted" py="8" textAlign="center">
        {t('earn.empty')}
      </Text>
    );
  }
  return (
    <Grid gap="4" templateColumns={{ base: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))', xl: 'repeat(3, minmax(0, 1fr))' }}>
      {products.data.records.map((product) => (
        <ProductCard key={product.id} product={product} block={subscribeBlock(product, holderOf(product.id))} href={hrefOf(product.id)} />
      ))}
    </Grid>
  );
}

export function ProductsPage({ kind }: { kind: 'pledge' | 'defi' }) {
  const { t } = useTranslation();
  useDocumentTitle(t(`earn.titles.${kind}`));
  return (
    <EarnFrame section={kind} title={t(`earn.titles.${kind}`)} intro={t(`earn.intro.${kind}`)}>
      <ProductGrid type={kind === 'pledge' ? ProductListType.pledge : ProductListType.defi} hrefOf={(id) => `/pledge/add?id=${id}`} />
    </EarnFrame>
  );
}
