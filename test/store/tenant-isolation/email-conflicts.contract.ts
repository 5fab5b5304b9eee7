import { contract } from "./contract.js";

export default contract({
  repository: "emailConflicts",
  async seed() {
    return {};
  },
  checks: {},
  exempt: {
    list: "the operator's CLI lists what the email canonical-form migration found, in every tenant: no tenant's credential reaches it",
  },
  async intact() {},
});
