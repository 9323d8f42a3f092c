/**
 * The dense tables of the live market panels (order book, recent trades): small muted column
 * headers, the first column at the start and the others at the end, and tight rows of tabular
 * figures.
 *
 * @module
 */

import { Table } from '@chakra-ui/react';
import type { ComponentProps } from 'react';

/** The header row; `srOnly` keeps it for screen readers only (a table under one that shows it). */
export function CompactHeader({ labels, srOnly }: { labels: string[]; srOnly?: boolean }) {
  return (
    <Table.Header srOnly={srOnly || undefined}>
      <Table.Row>
        {labels.map((label, index) => (
          <Table.ColumnHeader key={index} fontSize="2xs" color="fg.muted" fontWeight="medium" py="1.5" px="3" textAlign={index === 0 ? undefined : 'end'}>
            {label}
          </Table.ColumnHeader>
        ))}
      </Table.Row>
    </Table.Header>
  );
}

/** A tight cell of tabular figures. */
export function CompactCell(props: ComponentProps<typeof Table.Cell>) {
  return <Table.Cell py="0.5" px="3" fontSize="xs" fontVariantNumeric="tabular-nums" {...props} />;
}
