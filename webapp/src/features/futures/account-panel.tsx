/**
 * The futures account panel under the chart: the shared futures lists (positions with size, entry,
 * mark, liquidation price, margin, margin ratio, unrealised PnL and ROE, TP/SL; current orders with
 * cancel; order history; stop orders with cancel) with the position actions, which open the TP/SL,
 * margin adjustment, stop order and close-position dialogs. A dialog follows the live position.
 *
 * @module
 */

import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CoinListEntry, FuturesPosition } from '../../api/generated/model';
import { FuturesOrdersBrowser, type PositionAction, useOpenFuturesPositions } from '../../components/futures-orders';
import { pairName } from '../../hooks/use-market-rows';
import { ClosePositionDialog, MarginDialog, StopOrderDialog, TpSlDialog } from './dialogs';

type DialogState = { kind: PositionAction; position: FuturesPosition } | null;

export const AccountPanel = memo(function AccountPanel({ coin, coins }: { coin: CoinListEntry; coins: CoinListEntry[] }) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<DialogState>(null);
  const positions = useOpenFuturesPositions();
  const live = dialog ? (positions.data?.find((p) => p.id === dialog.position.id) ?? dialog.position) : null;
  const dialogCoin = (live && coins.find((c) => c.symbol === live.symbol)) || coin;
  const close = () => setDialog(null);
  return (
    <>
      <FuturesOrdersBrowser title={t('futures.account.title')} coins={coins} onAction={(kind, position) => setDialog({ kind, position })} />
      {dialog && live && dialog.kind === 'tpsl' && <TpSlDialog position={live} coin={dialogCoin} pair={pairName(dialogCoin)} onClose={close} />}
      {dialog && live && dialog.kind === 'margin' && <MarginDialog position={live} coin={dialogCoin} pair={pairName(dialogCoin)} onClose={close} />}
      {dialog && live && dialog.kind === 'stop' && <StopOrderDialog position={live} coin={dialogCoin} pair={pairName(dialogCoin)} onClose={close} />}
      {dialog && live && dialog.kind === 'close' && <ClosePositionDialog position={live} coin={dialogCoin} pair={pairName(dialogCoin)} onClose={close} />}
    </>
  );
});
