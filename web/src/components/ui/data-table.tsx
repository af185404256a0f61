import { Fragment, type ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { ScrollRegion } from './scroll-region';

export interface Column<Row> {
  /** The column's heading: its text, or an sr-only span for a column of actions. */
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  align?: 'right';
  /** More classes for the column's cells (colour, width, wrapping); a function for classes that depend on the row. */
  className?: string | ((row: Row) => string);
  /** The column names the row: its cells are row headers. */
  rowHeader?: boolean;
}

/**
 * `flush`: columns apart, the first and last at the edges (a table inside a card's padding); `boxed`: every cell
 * padded; `compact`: a log's dense rows under a shaded header.
 */
const SPACING: Record<'flush' | 'boxed' | 'compact', { thead: string; head: string; cell: string; between?: string }> = {
  flush: { thead: 'border-b border-slate-200 text-slate-600', head: 'py-2', cell: 'py-3', between: 'pr-4' },
  boxed: { thead: 'border-b border-slate-200 text-slate-600', head: 'px-4 py-3', cell: 'px-4 py-3' },
  compact: { thead: 'bg-slate-50 text-slate-700', head: 'px-3 py-2', cell: 'px-3 py-2' },
};

/**
 * The app's one table: a header row of `columns`, a body row per item of `rows`. With `scrollLabel` it sits in a
 * ScrollRegion that scrolls sideways on a narrow screen (give it a min width in `className`); with `cards`, narrow
 * screens get one card per row instead (the table shows from `md` up).
 */
export function DataTable<Row>(props: {
  rows: readonly Row[];
  columns: readonly Column<Row>[];
  rowKey: (row: Row) => string;
  /** A caption for screen readers, e.g. "Credit transactions, newest first". */
  caption?: string;
  /** The table's accessible name when it has no caption. */
  label?: string;
  scrollLabel?: string;
  scrollClassName?: string;
  spacing?: keyof typeof SPACING;
  className?: string;
  testId?: string;
  rowTestId?: string;
  cards?: { label: string; testId: string; className: string; render: (row: Row) => ReactNode };
  /**
   * Below 640 px, each row as a card of its columns (header, then value), so a phone shows every column without
   * sideways scrolling; the list is named `label`, and its items carry `<rowTestId>-card`.
   */
  stacked?: { label: string };
  /** Rows that belong together (a batch's photos, listed one after another) get a heading row before the first of them. */
  groupOf?: (row: Row) => { key: string; label: ReactNode } | undefined;
}) {
  const spacing = SPACING[props.spacing ?? 'flush'];
  /** Whether the row opens a group: it has one, and the row before it is not of the same group. */
  const groupStart = (index: number) => {
    const group = props.groupOf?.(props.rows[index]!);
    return group !== undefined && (index === 0 || props.groupOf!(props.rows[index - 1]!)?.key !== group.key);
  };
  /** The gap after a column (flush spacing), none after the last. */
  const gap = (index: number) => index < props.columns.length - 1 && spacing.between;
  const table = (
    <table className={cn('w-full text-left text-sm', props.className)} aria-label={props.label} data-testid={props.testId}>
      {props.caption && <caption className="sr-only">{props.caption}</caption>}
      <thead className={spacing.thead}>
        <tr>
          {props.columns.map((column, index) => (
            <th key={index} scope="col" className={cn(spacing.head, gap(index), 'font-medium', column.align === 'right' && 'text-right')}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {props.rows.map((row, rowIndex) => (
          <Fragment key={props.rowKey(row)}>
          {groupStart(rowIndex) && (
            <tr data-testid="row-group">
              <th scope="colgroup" colSpan={props.columns.length} className={cn(spacing.cell, 'bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600')}>
                {props.groupOf!(row)!.label}
              </th>
            </tr>
          )}
          <tr data-testid={props.rowTestId} className={cn(props.groupOf?.(row) && '[&>*:first-child]:pl-8')}>
            {props.columns.map((column, index) => {
              const className = cn(
                spacing.cell,
                gap(index),
                column.align === 'right' && 'text-right',
                typeof column.className === 'function' ? column.className(row) : column.className,
              );
              return column.rowHeader ? (
                <th key={index} scope="row" className={className}>
                  {column.cell(row)}
                </th>
              ) : (
                <td key={index} className={className}>
                  {column.cell(row)}
                </td>
              );
            })}
          </tr>
          </Fragment>
        ))}
      </tbody>
    </table>
  );
  const scrolling = props.scrollLabel ? (
    <ScrollRegion label={props.scrollLabel} className={props.scrollClassName}>
      {table}
    </ScrollRegion>
  ) : (
    table
  );
  if (props.stacked) {
    return (
      <>
        <div className="hidden sm:block">{scrolling}</div>
        <ul className="divide-y divide-slate-100 sm:hidden" aria-label={props.stacked.label}>
          {props.rows.map((row) => (
            <li key={props.rowKey(row)} data-testid={props.rowTestId && `${props.rowTestId}-card`} className="py-3">
              <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
                {props.columns.map((column, index) => (
                  <div key={index} className="contents">
                    <dt className="text-slate-600">{column.header}</dt>
                    <dd
                      className={cn(
                        'min-w-0 text-right wrap-anywhere',
                        typeof column.className === 'function' ? column.className(row) : column.className,
                      )}
                    >
                      {column.cell(row)}
                    </dd>
                  </div>
                ))}
              </dl>
            </li>
          ))}
        </ul>
      </>
    );
  }
  if (!props.cards) return scrolling;
  const { cards } = props;
  return (
    <>
      <div className="hidden md:block">{scrolling}</div>
      {/* Narrow screens: one card per row, every field and action inside the viewport. */}
      <ul className="divide-y divide-slate-100 md:hidden" aria-label={cards.label}>
        {props.rows.map((row, rowIndex) => (
          <Fragment key={props.rowKey(row)}>
            {groupStart(rowIndex) && (
              <li data-testid="row-group" className="bg-slate-50 px-4 py-2 text-xs font-semibold uppercase tracking-wide text-slate-600">
                {props.groupOf!(row)!.label}
              </li>
            )}
            <li data-testid={cards.testId} className={cn(cards.className, props.groupOf?.(row) && 'pl-8')}>
              {cards.render(row)}
            </li>
          </Fragment>
        ))}
      </ul>
    </>
  );
}
