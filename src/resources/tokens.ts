import { del, get, post } from '../core/endpoint';
import { CreateTokenRequest, Token, TokenList } from './schemas';

/** API tokens of the server: the only writes the API has. POST and DELETE are never retried. */
export const tokens = {
  /** #55: the server's tokens. */
  list: get('/api/v1/tokens', TokenList),
  /** #56: creates a token; the answer shows its secret, once. `name` is required. */
  create: post('/api/v1/tokens', CreateTokenRequest, Token),
  /** #57: the token in use. */
  current: get('/api/v1/tokens/current', Token),
  /** #58: deactivates a token; it answers 401 from then on. */
  deactivate: del('/api/v1/tokens/{tokenId}', Token),
};
