/**
 * A plain data table: a caption for screen readers, a header row of column labels, rows that do
 * not wrap and a sideways scroll on narrow screens; plus the right-aligned number cell.
 *
 * @module
 */

import { Table } from '@chakra-ui/react';
import type { ComponentProps, ReactNode } from 'react';

/** One column: its React key, its header label and whether it is right-aligned (numbers). */
export interface DataColumn {
  key: string;
  label: string;
  end?: boolean;
}

/** A table with a caption for screen readers, scrolling sideways on narrow screens. */
export function DataTable({ label, columns, children, busy }: { label: string; columns: DataColumn[]; children: ReactNode; busy?: boolean }) {
  return (
    <Table.ScrollArea>
      <Table.Root size="sm" aria-label={label} aria-busy={busy || undefined} css={{ '& td, & th': { whiteSpace: 'nowrap' } }}>
        <Table.Header>
          <Table.Row bg="bg.subtle">
            {columns.map((column, index) => (
              <Table.ColumnHeader
                key={column.key}
                fontSize="xs"
                color="fg.muted"
                fontWeight="medium"
                textAlign={column.end ? 'end' : 'start'}
                ps={index === 0 ? '4' : undefined}
                pe={index === columns.length - 1 ? '4' : undefined}
              >
                {column.label}
              </Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>{children}</Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

/** A right-aligned cell of tabular figures (prices, amounts, rates). */
export function NumberCell(props: ComponentProps<typeof Table.Cell>) {
  return <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums" {...props} />;
}
