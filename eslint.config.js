// Type-aware lint rules for what the compiler does not catch: promises nobody awaits or
// handles, promises passed where a callback's result is ignored, and switches over a union that
// miss a member. Formatting is Prettier's (.prettierrc.json), not a lint rule.
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["gen/**", "dist/**", "sdk/**", "third_party/**", "node_modules/**", "src/pages/**/*.js", "data/**"] },
  {
    files: ["**/*.ts", "**/*.mts"],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "@typescript-eslint": tseslint.plugin },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
    },
  },
);
