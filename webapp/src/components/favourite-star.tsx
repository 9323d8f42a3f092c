/**
 * The star that adds a market to the favourites or takes it out: a toggle button whose pressed
 * state is the favourite state, named after the pair.
 *
 * @module
 */

import { IconButton } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { StarIcon } from './icons';
import { useFavourites, useToggleFavourite } from '../hooks/use-favourites';

interface FavouriteStarProps {
  /** The market's favourite id (`spot:btcusdt`, see `favouriteId`). */
  id: string;
  /** The pair as shown (`BTC/USDT`), for the button's name. */
  pair: string;
  size?: 'xs' | 'sm';
}

export function FavouriteStar({ id, pair, size = 'xs' }: FavouriteStarProps) {
  const { t } = useTranslation();
  const favourite = useFavourites().has(id);
  const toggleFavourite = useToggleFavourite();
  return (
    <IconButton
      size={size}
      variant="ghost"
      aria-pressed={favourite}
      aria-label={t('markets.favourite', { pair })}
      title={t('markets.favourite', { pair })}
      color={favourite ? 'brand.solid' : 'fg.subtle'}
      onClick={() => toggleFavourite(id)}
    >
      <StarIcon fill={favourite ? 'currentColor' : 'none'} />
    </IconButton>
  );
}
