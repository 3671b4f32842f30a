import { get, list } from '../core/endpoint';
import { created } from './watch-keys';
import { Application, ApplicationResponse } from './schemas';

export const applicationsGet = /* @__PURE__ */ get('applications.get', '/api/v1/server/applications/{applicationId}', Application);
export const applicationsList = /* @__PURE__ */ list(
  'applications.list',
  '/api/v1/server/applications',
  Application,
  created,
  applicationsGet,
);
export const applicationsResponses = /* @__PURE__ */ list(
  'applications.responses',
  '/api/v1/server/applications/{applicationId}/responses',
  ApplicationResponse,
  created,
);
export const applicationsResponsesByUser = /* @__PURE__ */ list(
  'applications.responsesByUser',
  '/api/v1/server/applications/user/{userId}/responses',
  ApplicationResponse,
  created,
);

/** Application forms and the responses submitted to them. */
export const applications = {
  /** #2: the server's applications, paged. */
  list: applicationsList,
  /** #3: the responses one user submitted, to any application, paged. */
  responsesByUser: applicationsResponsesByUser,
  /** #4: one application. */
  get: applicationsGet,
  /** #5: the responses submitted to one application, paged. */
  responses: applicationsResponses,
};
