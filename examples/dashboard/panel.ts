/**
 * A paged table in a `<section>`: a summary line, the rows, Previous/Next and "page X of Y".
 * It knows nothing about the API; its `load` does the fetching, so the same panel serves lists
 * paged by the service and lists filtered and paged in the browser.
 * @module
 */
import { describeError } from './format';

export interface Column<T> {
  readonly header: string;
  readonly cell: (row: T) => string;
  /** Adds a class to the column's cells, e.g. `id` for monospace ids. */
  readonly className?: string;
  /** A longer text shown on hover, e.g. a full id behind a shortened one. */
  readonly title?: (row: T) => string;
}

/** One page as the panel shows it. */
export interface PageView<T> {
  readonly rows: readonly T[];
  readonly page: number;
  readonly totalPages: number;
  /** One line above the table, e.g. "250 members". */
  readonly summary: string;
}

export interface PanelOptions<T> {
  /** What the panel lists, for messages: "members", "open calls". */
  readonly noun: string;
  readonly columns: readonly Column<T>[];
  readonly rowId: (row: T) => string;
  readonly load: (page: number) => Promise<PageView<T>>;
}

/** Fills `section` (which holds the panel's heading) with a paged table and shows page 1. */
export function mountPanel<T>(section: HTMLElement, options: PanelOptions<T>): void {
  const summary = element('p', 'summary', 'Loading…');
  const alert = element('div', 'error');
  alert.setAttribute('role', 'alert');
  alert.hidden = true;
  const table = element('table');
  const headRow = table.createTHead().insertRow();
  for (const column of options.columns) headRow.append(element('th', column.className, column.header));
  const body = table.createTBody();
  const previous = button('Previous', 'previous');
  const next = button('Next', 'next');
  const indicator = element('span', 'indicator');
  indicator.setAttribute('aria-live', 'polite');
  const pager = element('nav', 'pager');
  pager.setAttribute('aria-label', `${options.noun} pages`);
  pager.append(previous, indicator, next);
  const scroll = element('div', 'table-scroll');
  scroll.append(table);
  section.append(summary, alert, scroll, pager);

  let shown: PageView<T> | undefined;
  // Each load gets a number; an answer that is no longer the latest is dropped, so a slow page
  // can never overwrite a newer one.
  let latest = 0;

  async function show(page: number): Promise<void> {
    const ticket = ++latest;
    section.setAttribute('aria-busy', 'true');
    previous.disabled = next.disabled = true;
    try {
      const view = await options.load(page);
      if (ticket !== latest) return;
      shown = view;
      alert.hidden = true;
      render(view);
    } catch (error) {
      if (ticket !== latest) return;
      showError(page, error);
    } finally {
      if (ticket === latest) {
        section.setAttribute('aria-busy', 'false');
        previous.disabled = !shown || shown.page <= 1;
        next.disabled = !shown || shown.page >= shown.totalPages;
      }
    }
  }

  function render(view: PageView<T>): void {
    summary.hidden = scroll.hidden = pager.hidden = false;
    summary.textContent = view.summary;
    body.replaceChildren(...view.rows.map(row));
    if (view.rows.length === 0) {
      const cell = body.insertRow().insertCell();
      cell.colSpan = options.columns.length;
      cell.className = 'empty';
      cell.textContent = `No ${options.noun}.`;
    }
    indicator.textContent = `page ${view.page} of ${Math.max(1, view.totalPages)}`;
  }

  function row(item: T): HTMLTableRowElement {
    const tr = element('tr');
    tr.dataset.id = options.rowId(item);
    for (const column of options.columns) {
      const td = element('td', column.className, column.cell(item));
      if (column.title) td.title = column.title(item);
      tr.append(td);
    }
    return tr;
  }

  function showError(page: number, error: unknown): void {
    // With nothing loaded yet, an empty table and a pager would only repeat the error.
    if (!shown) summary.hidden = scroll.hidden = pager.hidden = true;
    const retry = button('Retry', 'retry');
    retry.addEventListener('click', () => void show(page));
    alert.replaceChildren(
      element('strong', undefined, `Could not load page ${page} of ${options.noun}.`),
      ' ',
      element('span', 'message', describeError(error)),
      ' ',
      retry,
    );
    alert.hidden = false;
  }

  previous.addEventListener('click', () => shown && void show(shown.page - 1));
  next.addEventListener('click', () => shown && void show(shown.page + 1));
  void show(1);
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(label: string, action: string): HTMLButtonElement {
  const node = element('button', undefined, label);
  node.type = 'button';
  node.dataset.action = action;
  return node;
}
