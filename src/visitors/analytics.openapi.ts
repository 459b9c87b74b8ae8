import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { LIMIT_DEFAULT, LIMIT_MAX, PATH_PREFIX_MAX } from './visitors.params';

const DATE = 'YYYY-MM-DD (midnight in timezone) or ISO 8601 date-time; an explicit Z or ±hh:mm offset wins, none means the wall clock of timezone.';

/** The parameters every GET /v1/analytics/{projectId}/… endpoint takes (insights-and-delivery.md §1). */
export function ApiAnalyticsQuery(range = { from: 'Inclusive; absent = unbounded.', to: 'Exclusive; absent = unbounded.' }) {
  return applyDecorators(
    ApiQuery({ name: 'dateFrom', required: false, description: `${range.from} ${DATE}` }),
    ApiQuery({ name: 'dateTo', required: false, description: `${range.to} ${DATE}` }),
    ApiQuery({ name: 'timezone', required: false, schema: { type: 'string', default: 'UTC', example: 'Europe/Berlin' }, description: 'IANA time zone name; unknown → 400.' }),
    ApiQuery({ name: 'pathPrefix', required: false, schema: { type: 'string', maxLength: PATH_PREFIX_MAX, pattern: '^/', example: '/docs/api' }, description: 'Only hits whose path starts with this count.' }),
  );
}

export function ApiPageQuery() {
  return applyDecorators(
    ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: LIMIT_MAX, default: LIMIT_DEFAULT } }),
    ApiQuery({ name: 'offset', required: false, schema: { type: 'integer', minimum: 0, default: 0 } }),
  );
}
