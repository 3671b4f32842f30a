import { get, list } from '../core/endpoint';
import { created } from './watch-keys';
import { Application, ApplicationResponse } from './schemas';

/** #4's line, named here too: the list's items are what it answers. */
const application = get('/api/v1/server/applications/{applicationId}', Application);

/** Application forms and the responses submitted to them. */
export const applications = {
  /** #2: the server's applications, paged. */
  list: list('/api/v1/server/applications', Application, { ...created, itemGet: application }),
  /** #4: one application. */
  get: application,
  /** #5: the responses submitted to one application, paged. */
  responses: list('/api/v1/server/applications/{applicationId}/responses', ApplicationResponse, created),
  /** #3: the responses one user submitted, to any application, paged. */
  responsesByUser: list('/api/v1/server/applications/user/{userId}/responses', ApplicationResponse, created),
};
