import type { Repositories } from "../../store/database.js";
import { userClaims } from "./claims.js";

/**
 * The engine's account lookup: the project's user, unless disabled or deleted (then the code
 * or refresh token that names it is refused as invalid_grant).
 */
export function findAccount(repos: () => Repositories, projectId: string) {
  return async (_ctx: unknown, sub: string) => {
    const user = await repos().users.get(projectId, sub);
    if (!user || user.disabled) return undefined;
    return {
      accountId: user.id,
      async claims(_use: string, scope: string) {
        return userClaims(user, new Set(scope.split(" ")));
      },
    };
  };
}
