import { Initial1732600000000 } from "./1732600000000-initial.js";

// Listed, not globbed: the build output and tsx see the same set, in the same order.
export const migrations = [Initial1732600000000];
