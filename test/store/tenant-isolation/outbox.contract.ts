import { contract } from "./contract.js";

const reason =
  "the outbox is Gatehouse's own delivery queue: its rows carry no tenant, and only the delivery worker and the operator CLI read them";

export default contract({
  repository: "outbox",
  async seed() {
    return {};
  },
  checks: {},
  exempt: {
    enqueue: reason,
    claimDue: reason,
    markSent: reason,
    recordFailure: reason,
    listPending: reason,
    backlog: reason,
  },
  async intact() {},
});
