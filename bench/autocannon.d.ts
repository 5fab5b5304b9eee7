// Minimal types for the parts of autocannon 8's programmatic API the benchmark uses.
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  export interface RequestParams {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  export interface AutocannonRequest extends RequestParams {
    setupRequest?: (request: RequestParams, context: Record<string, unknown>) => RequestParams;
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
  }
  export interface Options {
    url: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: AutocannonRequest[];
    bailout?: number;
  }
  export interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
    min: number;
    total: number;
  }
  export interface Result {
    requests: Histogram & { sent: number };
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
    "2xx": number;
  }
  export interface Instance extends EventEmitter {
    stop(): void;
  }
  function autocannon(options: Options, callback: (error: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
