import { getOption, hasOption, type DescMethod } from "@bufbuild/protobuf";
import type { UniversalHandler } from "@connectrpc/connect/protocol";
import { http as httpExt } from "../../gen/google/api/annotations_pb.js";
import type { HttpRule } from "../../gen/google/api/http_pb.js";

/** One REST binding, compiled from a method's `google.api.http` option. */
export interface RestRoute {
  verb: string;
  template: string;
  segments: Array<{ literal: string } | { variable: string }>;
  /** `*` (whole body), empty (no body) or one field name. */
  body: string;
  responseBody: string;
  handler: UniversalHandler;
}

export interface RestMatch {
  route: RestRoute;
  params: Record<string, string>;
}

// The REST table is read from the descriptors, never written by hand: the proto is the one
// place a path is declared.
export function compileRestRoutes(handlers: readonly UniversalHandler[]): RestRoute[] {
  const routes: RestRoute[] = [];
  for (const handler of handlers) {
    const method: DescMethod = handler.method;
    if (!hasOption(method, httpExt)) continue;
    const rule = getOption(method, httpExt);
    for (const binding of [rule, ...rule.additionalBindings]) {
      const route = compileBinding(binding, handler);
      if (route) routes.push(route);
    }
  }
  // Where two templates could match one path, the one with more literal segments wins.
  return routes.sort((a, b) => literalCount(b) - literalCount(a));
}

export function matchRestRoute(routes: readonly RestRoute[], verb: string, path: string): RestMatch | undefined {
  const parts = path.split("/").filter((p) => p !== "");
  for (const route of routes) {
    if (route.verb !== verb) continue;
    const params = matchSegments(route, parts);
    if (params) return { route, params };
  }
  return undefined;
}

/** The HTTP methods the REST table serves on this path, whatever the request's own (for 405's `Allow`). */
export function restVerbsFor(routes: readonly RestRoute[], path: string): string[] {
  const parts = path.split("/").filter((p) => p !== "");
  return [...new Set(routes.filter((route) => matchSegments(route, parts)).map((route) => route.verb))];
}

function compileBinding(rule: HttpRule, handler: UniversalHandler): RestRoute | undefined {
  if (rule.pattern.case === undefined || rule.pattern.case === "custom") return undefined;
  const template = rule.pattern.value;
  const segments = template
    .split("/")
    .filter((p) => p !== "")
    .map((part) => {
      const variable = /^\{([a-z_][a-z0-9_]*)\}$/.exec(part);
      return variable ? { variable: variable[1] } : { literal: part };
    });
  return {
    verb: rule.pattern.case.toUpperCase(),
    template,
    segments,
    body: rule.body,
    responseBody: rule.responseBody,
    handler,
  };
}

function matchSegments(route: RestRoute, parts: string[]): Record<string, string> | undefined {
  if (route.segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const segment = route.segments[i];
    if ("literal" in segment) {
      if (segment.literal !== parts[i]) return undefined;
    } else {
      try {
        params[segment.variable] = decodeURIComponent(parts[i]);
      } catch {
        return undefined;
      }
    }
  }
  return params;
}

function literalCount(route: RestRoute): number {
  return route.segments.filter((s) => "literal" in s).length;
}
