import { DomainError, validationFailed, type Violation } from "../../domain/errors.js";
import { isIdOf } from "../../domain/ids.js";
import { ALL_EVENT_TYPES, auditTypesFor, unknownEventTypes, WEBHOOK_EVENT_TYPES } from "../../domain/webhooks.js";
import { checkOutboundUrl } from "../../outbound/url-check.js";
import type { Subscription } from "../../store/repositories/webhook-endpoints.js";
import type { FlowDeps } from "../deps.js";

export function webhookNotFound(): DomainError {
  return new DomainError("WEBHOOK_NOT_FOUND", "no such webhook endpoint in this organization");
}

/** An id that cannot be an endpoint's answers as an unknown one, before any lookup. */
export function assertEndpointId(id: string): void {
  if (!isIdOf("wh", id)) throw webhookNotFound();
}

/** The URL's problem as a violation of `field`, or none. */
export function urlViolations(deps: Pick<FlowDeps, "config">, field: string, url: string | undefined): Violation[] {
  if (url === undefined) return [];
  const problem = checkOutboundUrl(url, deps.config.outboundAllowHosts);
  return problem ? [{ field, description: problem }] : [];
}

/** Each unknown type is its own violation, so the answer names it. */
export function eventTypeViolations(eventTypes: readonly string[]): Violation[] {
  const unknown = new Set(unknownEventTypes(eventTypes));
  const violations: Violation[] = [];
  eventTypes.forEach((type, i) => {
    if (unknown.has(type))
      violations.push({
        field: `event_types[${i}]`,
        description: `is not a known event type ("${type}"); see docs/webhooks.md`,
      });
  });
  if (eventTypes.includes(ALL_EVENT_TYPES) && eventTypes.length > 1)
    violations.push({ field: "event_types", description: `"*" stands for every type: list it alone` });
  return violations;
}

export function throwIfAny(violations: Violation[]): void {
  if (violations.length > 0) throw validationFailed(violations);
}

/**
 * What the audit_events trigger matches for these types: `*` is every type of the catalog, and
 * stays so as the catalog grows (syncAllTypes at start-up), never an audit type it leaves out.
 */
export function subscriptionFor(eventTypes: readonly string[]): Subscription {
  const allTypes = eventTypes.includes(ALL_EVENT_TYPES);
  return {
    eventTypes: [...eventTypes],
    auditTypes: auditTypesFor(allTypes ? WEBHOOK_EVENT_TYPES : eventTypes),
    allTypes,
  };
}
