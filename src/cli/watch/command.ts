/**
 * `community-server watch <group…> <list> [ids…]`: each item that enters a list from now on, as
 * one JSON line, oldest first, until interrupted; the SDK's `watch()` does the polling. With
 * `--forward-to URL` each item is first delivered to a receiver (`forward.ts`); with
 * `--cursor-file PATH` the place is kept after each item is delivered (`cursor-file.ts`), and
 * kept from the start, so a watch restarted after a crash or a Ctrl-C misses nothing that
 * entered the list meanwhile and repeats nothing already delivered.
 *
 * Ctrl-C: a watch waiting for items ends at once (exit 0); during a delivery, the attempt in
 * flight may finish (then the place is kept and the watch ends, exit 0), but no other attempt
 * starts (exit 130; the item is delivered again by a restart). A second Ctrl-C ends it at once.
 * @module
 */
import type { PagePromise } from '../../core/pagination';
import { sleep } from '../../core/sleep';
import type { Watch } from '../../core/watch/watch';
import { connect } from '../connection';
import type { Cli } from '../context';
import { Interrupted, UsageError } from '../failure';
import { integerFlag, parse } from '../flags';
import { idArguments, methodOf, refusedAsUsage } from '../request';
import { WATCH_OPTIONS } from '../subcommand-flags';
import { isGroup, resolveWords } from '../tree';
import { CursorFile } from './cursor-file';
import { Forwarder, SIGNATURE_HEADER } from './forward';

const DEFAULT_INTERVAL_MS = 10_000;
/** Shorter secrets are guessable; `openssl rand -hex 32` makes a good one. */
const MIN_SECRET_LENGTH = 16;

const HELP = `Usage: community-server watch <group…> <list> [ids…] [flags]

Prints each item that enters a list from now on as one JSON line, oldest first, until
interrupted (Ctrl-C). The API has no events: the list is polled. Any list of
'community-server --help' can be watched, e.g. 'watch logs list', 'watch departments loas list <department-id>'.

  --interval-ms N     milliseconds between polls (default ${DEFAULT_INTERVAL_MS})
  --forward-to URL    first POST each item to URL as {"endpoint": "logs.list", "item": {…}}, signed
                      with env COMMUNITY_SERVER_WEBHOOK_SECRET (at least ${MIN_SECRET_LENGTH} characters) in the
                      header ${SIGNATURE_HEADER.replace(/\b\w/g, (c) => c.toUpperCase())}: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">
                      (verifyWebhookSignature of community-server-sdk/webhooks checks it); a delivery
                      that fails is retried with backoff, and the items after it wait their turn
  --cursor-file PATH  keep the watch's place in PATH after each item is delivered; a restarted
                      watch resumes there: nothing missed, nothing repeated
  -h, --help          this help

Takes the connection flags of every command ('community-server --help'); --mock makes its world
change by itself, one event per interval.
`;

export async function run(args: readonly string[], cli: Cli): Promise<void> {
  const { values, positionals } = parse(args, WATCH_OPTIONS, 'watch');
  if (values.help) return cli.out.write(HELP);
  const { node, used } = resolveWords(positionals);
  if (isGroup(node) || !node.paged) {
    throw new UsageError(
      `watch follows a list: name one, e.g. 'watch logs list'${positionals.length ? `; '${positionals.join(' ')}' is not one` : ''}`,
      'watch',
    );
  }
  const ids = idArguments(node, positionals.slice(used), 'watch');
  const intervalMs = integerFlag(values, 'interval-ms', 1, 2 ** 31 - 1) ?? DEFAULT_INTERVAL_MS;
  const forwardTo = forwardUrl(values['forward-to']);
  const secret = forwardTo && webhookSecret(cli);
  const connection = await connect(values, cli, { needsToken: node.endpoint.auth, mockActivityMs: intervalMs });
  try {
    const identity = { watch: node.name, ids, baseUrl: withoutCredentials(connection.baseUrl) };
    const path = values['cursor-file'];
    const { file, cursor } = typeof path === 'string' ? await CursorFile.open(path, identity) : { file: undefined, cursor: undefined };
    // A cursor the SDK refuses is found when the watch is made, just after the list's first
    // request is started: that request is stopped before it goes out.
    const refused = new AbortController();
    const list = methodOf(connection.client, node)(
      ...ids,
      {},
      { signal: AbortSignal.any([cli.signal, refused.signal]) },
    ) as PagePromise<unknown>;
    let watch: Watch<unknown>;
    try {
      watch = list.watch({ intervalMs, cursor, signal: cli.signal });
    } catch (error) {
      refused.abort();
      list.catch(() => undefined);
      return refusedAsUsage('watch')(error);
    }
    const forwarder =
      forwardTo && secret
        ? new Forwarder({
            url: forwardTo,
            secret,
            endpoint: node.name,
            signal: cli.signal,
            report: (line) => cli.err.line(`community-server: ${line}`),
          })
        : undefined;
    await follow(watch, { cli, file, forwarder, resumed: cursor !== undefined });
  } finally {
    connection.close();
  }
}

/** Prints (after delivering, if forwarding) each item of `watch`, keeping its place in `file` as it goes. */
async function follow(
  watch: Watch<unknown>,
  { cli, file, forwarder, resumed }: { cli: Cli; file: CursorFile | undefined; forwarder: Forwarder | undefined; resumed: boolean },
): Promise<void> {
  let next = watch.next();
  // The place is kept from the start: a restart before the first item resumes from here, not from its own start.
  if (file && !resumed && (await started(watch, next, cli.signal))) await file.save(watch.cursor!);
  let delivering = false;
  const onInterrupt = () =>
    void (delivering && cli.err.line('community-server: stopping once the delivery in flight ends (Ctrl-C again to stop now)'));
  cli.signal.addEventListener('abort', onInterrupt, { once: true });
  try {
    for (let result = await next; !result.done; result = await next) {
      delivering = true;
      await forwarder?.deliver(result.value).catch((error: unknown) => {
        throw error instanceof Interrupted
          ? new Interrupted('interrupted before an item was delivered; a restart with the same --cursor-file delivers it')
          : error;
      });
      delivering = false;
      await cli.out.line(JSON.stringify(result.value));
      await file?.save(watch.cursor!);
      if (cli.signal.aborted) return;
      next = watch.next();
    }
  } finally {
    cli.signal.removeEventListener('abort', onInterrupt);
    watch.close();
  }
}

/** Resolves true once the watch knows where it starts (its cursor), false if it ends or fails first. */
async function started(watch: Watch<unknown>, next: Promise<IteratorResult<unknown>>, signal: AbortSignal): Promise<boolean> {
  let settled = false;
  void next.then(
    () => (settled = true),
    () => (settled = true),
  );
  // The SDK says when its cursor is known only by the cursor: look often while the first page is read.
  while (watch.cursor === undefined && !settled && !signal.aborted) await sleep(20, undefined);
  return watch.cursor !== undefined;
}

/** `--forward-to`: an http(s) URL. */
function forwardUrl(raw: string | boolean | undefined): URL | undefined {
  if (typeof raw !== 'string') return undefined;
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new UsageError(`--forward-to must be an http(s) URL, got "${raw}"`, 'watch');
  }
  return url;
}

/** The secret deliveries are signed with, from the environment only (an argument would show in `ps`). */
function webhookSecret(cli: Cli): string {
  const secret = cli.io.env.COMMUNITY_SERVER_WEBHOOK_SECRET?.trim() ?? '';
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new UsageError(
      `--forward-to signs each delivery with env COMMUNITY_SERVER_WEBHOOK_SECRET, which must hold at least ${MIN_SECRET_LENGTH} characters (e.g. from 'openssl rand -hex 32'); ${secret ? 'it is too short' : 'it is not set'}`,
      'watch',
    );
  }
  cli.secrets.add(secret);
  return secret;
}

/** A base URL as a cursor file names it: no credentials, query or hash. */
function withoutCredentials(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.origin}${url.pathname}`;
}
