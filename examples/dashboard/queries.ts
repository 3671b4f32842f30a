/**
 * The dashboard's data layer: the `community-server-sdk/core` functions its panels call, at their
 * client paths, and `queries(core, tree)` over them. The page bundles these ten requests and
 * their schemas alone, where `queries(client)` would bring the whole client; the options and
 * keys are those `queries(client)` makes for the same methods.
 * @module
 */
import {
  cadCallsList,
  loasList,
  logsList,
  membersGet,
  membersList,
  serverInfo,
  tokensCreate,
  tokensCurrent,
  tokensDeactivate,
  tokensList,
  type Core,
} from 'community-server-sdk/core';
import { queries, type CoreQueries } from 'community-server-sdk/query';

/** What the panels ask for: `q.members.listInfinite()`, `q.logs.listLive()`, `q.tokens.create()`… */
const requests = {
  server: { info: serverInfo },
  members: { list: membersList, get: membersGet },
  logs: { list: logsList },
  cad: { calls: { list: cadCallsList } },
  loas: { list: loasList },
  tokens: { list: tokensList, current: tokensCurrent, create: tokensCreate, deactivate: tokensDeactivate },
};

/** The query options the panels use (`q.members.listInfinite({ pageSize: 20 })`). */
export type DashboardQueries = CoreQueries<typeof requests>;

/** The panels' query options over `core`. */
export const dashboardQueries = (core: Core): DashboardQueries => queries(core, requests);
