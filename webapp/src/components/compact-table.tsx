/**
 * The dense tables of the live market panels (order book, recent trades): small muted column
 * headers, the first column at the start and the others at the end, and tight rows of tabular
 * figures, and the blank rows that keep a panel at its full height before its data arrives.
 *
 * The rows are plain `<tr>` and `<td>` elements styled by their table ({@link COMPACT_TABLE} and the
 * panel's own selectors in the table's `css`): a Chakra `Table.Row` or `Table.Cell` resolves its
 * recipe and style props on every render, which for the 40 to 60 rows of a trade page was most of
 * its first render (docs/benchmarks.md "Trade pages: the first render"). The table resolves its
 * styles once.
 *
 * @module
 */

import { Table, type SystemStyleObject } from '@chakra-ui/react';

/**
 * The cells of a compact table, set on its `Table.Root` (`css`): tight, extra-small tabular figures,
 * no borders, the first column at the start and the others at the end. A cell with `data-note` (an
 * empty or loading message across the columns) is centred and muted.
 */
export const COMPACT_TABLE: SystemStyleObject = {
  '& td, & th': { borderBottomWidth: 0 },
  '& td': { py: '0.5', px: '3', fontSize: 'xs', fontVariantNumeric: 'tabular-nums', textAlign: 'start' },
  '& td + td': { textAlign: 'end' },
  '& td[data-note]': { textAlign: 'center', color: 'fg.muted' },
  '& [data-sr-only]': { srOnly: true },
};

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

/**
 * `count` blank rows as high as the panel's real ones (the table's `css` sizes both), hidden from
 * assistive technology: a panel keeps its height while its data loads or runs short, so nothing
 * under it moves when rows arrive. Inside a table styled with {@link COMPACT_TABLE}.
 */
export function BlankRows({ count, columns }: { count: number; columns: number }) {
  if (count <= 0) return null;
  return (
    <>
      {Array.from({ length: count }, (_, index) => (
        <tr key={`blank-${index}`} aria-hidden="true">
          <td colSpan={columns}>
            <span style={{ visibility: 'hidden' }}>0</span>
          </td>
        </tr>
      ))}
    </>
  );
}
