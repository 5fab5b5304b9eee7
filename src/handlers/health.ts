import type { ServiceImpl } from "@connectrpc/connect";
import { HealthCheckResponse_ServingStatus, type Health } from "../../gen/grpc/health/v1/health_pb.js";

/** grpc.health.v1.Health/Check: SERVING while the database answers. */
export function healthHandlers(isHealthy: () => Promise<boolean>): Partial<ServiceImpl<typeof Health>> {
  return {
    async check() {
      return {
        status: (await isHealthy()) ? HealthCheckResponse_ServingStatus.SERVING : HealthCheckResponse_ServingStatus.NOT_SERVING,
      };
    },
  };
}
