/**
 * The phone way into a trade screen's order form: a bar stuck to the bottom of the viewport with
 * two buttons (Buy / Sell, Long / Short, Up / Down — the first in the up colour, the second in the
 * down colour); a tap opens the screen's own order form in a bottom sheet with that side chosen. The
 * form is the same component the wider layouts show in their grid (same validation, same wasm-core
 * figures); the sheet mounts it when it opens and closes when the form reports an order placed.
 * A spacer as tall as the bar keeps the end of the page clear of it.
 *
 * @module
 */

import { Box, Button, CloseButton, Drawer, Flex, Portal } from '@chakra-ui/react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TOUCH_TARGET } from './item-cards';

/** One of the bar's two buttons: the side it opens the form with, and its label. */
export interface SheetSide<S extends string> {
  side: S;
  label: string;
}

/** Height of the bar (its buttons and padding), kept free at the end of the page. */
const BAR_HEIGHT = '4.25rem';

/**
 * The bar and its sheet. `form(side, close)` renders the order form for `side`; the form calls
 * `close` once an order is placed. `title` names the sheet.
 */
export function TradeSheet<S extends string>({
  title,
  barLabel,
  up,
  down,
  form,
}: {
  title: string;
  barLabel: string;
  up: SheetSide<S>;
  down: SheetSide<S>;
  form: (side: S, close: () => void) => ReactNode;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  // The side stays while the sheet slides away, so the form does not blank out during the exit.
  const [side, setSide] = useState<S>(up.side);
  const close = () => setOpen(false);
  return (
    <>
      <Box aria-hidden="true" h={BAR_HEIGHT} />
      <Flex
        role="group"
        aria-label={barLabel}
        position="fixed"
        insetX="0"
        bottom="0"
        zIndex="sticky"
        gap="2"
        px="3"
        pt="2"
        pb="calc(0.5rem + env(safe-area-inset-bottom))"
        bg="bg.panel"
        borderTopWidth="1px"
        boxShadow="0 -4px 12px rgba(0, 0, 0, 0.08)"
      >
        {[
          { ...up, bg: 'up', color: 'onUp' },
          { ...down, bg: 'down', color: 'onDown' },
        ].map((choice) => (
          <Button
            key={choice.side}
            flex="1"
            minH={TOUCH_TARGET}
            fontWeight="semibold"
            bg={choice.bg}
            color={choice.color}
            _hover={{ bg: choice.bg, opacity: 0.9 }}
            aria-haspopup="dialog"
            aria-expanded={open && side === choice.side}
            onClick={() => {
              setSide(choice.side);
              setOpen(true);
            }}
          >
            {choice.label}
          </Button>
        ))}
      </Flex>
      <Drawer.Root open={open} onOpenChange={(details) => setOpen(details.open)} placement="bottom" lazyMount unmountOnExit>
        <Portal>
          <Drawer.Backdrop />
          <Drawer.Positioner>
            <Drawer.Content roundedTop="2xl" maxH="88dvh">
              <Drawer.Header py="3" pe="12" borderBottomWidth="1px">
                <Drawer.Title fontSize="md">{title}</Drawer.Title>
              </Drawer.Header>
              <Drawer.Body px="2" py="2" pb="calc(0.5rem + env(safe-area-inset-bottom))">
                {form(side, close)}
              </Drawer.Body>
              <Drawer.CloseTrigger asChild top="2" insetEnd="2">
                <CloseButton size="md" aria-label={t('common.close')} />
              </Drawer.CloseTrigger>
            </Drawer.Content>
          </Drawer.Positioner>
        </Portal>
      </Drawer.Root>
    </>
  );
}
