// typescript-eslint's recommendedTypeChecked: the type-aware rules for what the compiler does
// not catch (promises nobody awaits or handles, `any` leaking out of a JSON body, assertions
// that assert nothing), plus switches over a union that miss a member. Formatting is
// Prettier's (.prettierrc.json), not a lint rule. Each rule turned off or down below says how
// many hits it had over src, test, bench and scripts when it was measured (issue 47) and why.
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["gen/**", "dist/**", "sdk/**", "third_party/**", "node_modules/**", "src/pages/**/*.js", "data/**"] },
  {
    files: ["**/*.ts", "**/*.mts"],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
      // 62 hits, every one an object of closures (`{ start: loop.start }`, `keys.ipKey`) typed
      // with method shorthand; the house builds services from factories, not classes with `this`.
      "@typescript-eslint/unbound-method": "off",
      // 46 hits, each an implementation of a promise-returning interface (oidc-provider's
      // policies and page sources, authenticators, test stand-ins): `async` keeps a throw a rejection.
      "@typescript-eslint/require-await": "off",
      // 20 hits, all `_name` bindings left out on purpose (`const { secretHash: _, ...rest }`).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
      // 1 hit: a timer that a closure declared before it is set reads; as a const, calling that
      // closure early would throw (the temporal dead zone) instead of clearing nothing.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
      // An assertion that a value is present hides the case where it is not: narrow, throw a
      // domain error, or say why on an eslint-disable line.
      "@typescript-eslint/no-non-null-assertion": "error",
    },
  },
  {
    // 6,380 hits in test/ and bench/, nearly all on response bodies (`await res.json()`) and
    // dynamically loaded gRPC stubs, which are `any` by nature; a test asserts their shape
    // itself, so a declared type per response would be a second copy of what it checks.
    files: ["test/**", "bench/**"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      // 346 in test/ and bench/, reading what the test has just made or asserted is there: a wrong
      // guess fails the test as loudly as a check would.
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
);
