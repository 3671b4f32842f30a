import { del, get, post } from '../core/endpoint';
import { CreateTokenRequest, Token, TokenList } from './schemas';

export const tokensList = /* @__PURE__ */ get('tokens.list', '/api/v1/tokens', TokenList);
export const tokensCreate = /* @__PURE__ */ post('tokens.create', '/api/v1/tokens', CreateTokenRequest, Token);
export const tokensCurrent = /* @__PURE__ */ get('tokens.current', '/api/v1/tokens/current', Token);
export const tokensDeactivate = /* @__PURE__ */ del('tokens.deactivate', '/api/v1/tokens/{tokenId}', Token);

/** API tokens of the server: the only writes the API has. POST and DELETE are never retried. */
export const tokens = {
  /** #55: the server's tokens. */
  list: tokensList,
  /** #56: creates a token; the answer shows its secret, once. `name` is required. */
  create: tokensCreate,
  /** #57: the token in use. */
  current: tokensCurrent,
  /** #58: deactivates a token; it answers 401 from then on. */
  deactivate: tokensDeactivate,
};
