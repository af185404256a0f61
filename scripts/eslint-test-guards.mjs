// An ESLint rule for test/ (eslint.config.js turns it on there): a test must not pass by skipping its own claims.
// It refuses
//   - an `expect` (or an e2e `.waitFor()`) inside an `if` chain that has no final `else`, or on the right of `&&`,
//     `||` or `??`: when the condition is false the claim is never made and the test is green for nothing. An `if`
//     whose branch ends by leaving (`continue`, `return`, `break`, `throw`) has the rest of its block as its `else`:
//     it passes when that rest asserts something too;
//   - a bare `return;` in a test's body that skips assertions after it with none made on its own branch before it
//     (`if (!ready) return;`).
// A condition that is itself the point (a branch of a table, each case asserted) gets an `else` that asserts the other
// case; a skip that is real is `it.skipIf(...)`, which the report shows. A true exception carries a comment naming
// its reason, on the line of the `if`/`return` or the line above: `// test-guard: <reason>`.

const GUARD_COMMENT = /test-guard:\s*\S/;
const TEST_FUNCTIONS = new Set(['it', 'test']);

/** The identifier a callee chain starts from: `expect` for expect(x).toBe, expect.poll(f).toBe, expect.soft(x)… */
function rootName(node) {
  let current = node;
  for (;;) {
    if (current.type === 'CallExpression') current = current.callee;
    else if (current.type === 'MemberExpression') current = current.object;
    else if (current.type === 'AwaitExpression' || current.type === 'ChainExpression' || current.type === 'TSNonNullExpression') current = current.expression ?? current.argument;
    else return current.type === 'Identifier' ? current.name : undefined;
  }
}

/** An assertion: any call rooted at `expect`, or a Playwright `….waitFor()` (an e2e test's claim that something shows). */
function isAssertion(node) {
  if (node.type !== 'CallExpression') return false;
  if (rootName(node.callee) === 'expect') return true;
  return node.callee.type === 'MemberExpression' && !node.callee.computed && node.callee.property.name === 'waitFor';
}

/** Every node under `node` (itself included), by the parser's visitor keys; `enterFunctions: false` stops at nested functions. */
function* nodesUnder(node, visitorKeys, enterFunctions = true) {
  yield node;
  for (const key of visitorKeys[node.type] ?? []) {
    const children = [node[key]].flat();
    for (const child of children) {
      if (!child || typeof child.type !== 'string') continue;
      if (!enterFunctions && /Function/.test(child.type)) continue;
      yield* nodesUnder(child, visitorKeys, enterFunctions);
    }
  }
}

const EXITS = new Set(['ContinueStatement', 'ReturnStatement', 'BreakStatement', 'ThrowStatement']);

/** The statements after `node` in the block (or program, or switch case) that holds it. */
function statementsAfter(node) {
  const siblings = node.parent.body ?? node.parent.consequent;
  return Array.isArray(siblings) ? siblings.slice(siblings.indexOf(node) + 1) : [];
}

/** Whether `statement` always ends by leaving its block: an exit, or a block whose last statement is one. */
function leaves(statement) {
  if (statement.type === 'BlockStatement') return statement.body.length > 0 && leaves(statement.body.at(-1));
  return EXITS.has(statement.type);
}

/** The function a call to it/test (it.each(...)(...), it.skipIf(...)(...), test.concurrent(...) included) runs as the test. */
function testBody(call) {
  if (!TEST_FUNCTIONS.has(rootName(call.callee) ?? '')) return undefined;
  const body = call.arguments.find((argument) => argument.type === 'ArrowFunctionExpression' || argument.type === 'FunctionExpression');
  return body && body.body.type === 'BlockStatement' ? body : undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
export const noSilentPass = {
  meta: {
    type: 'problem',
    docs: { description: 'Refuses a test claim that is skipped silently: an expect inside an if without an else, or after a bare return.' },
    schema: [],
    messages: {
      conditionalAssertion:
        'An assertion inside an `if` without an `else` passes silently when the condition is false: assert the condition, add an `else` that asserts the other case, use it.skipIf, or name the reason in a `// test-guard: <reason>` comment.',
      returnBeforeAssertion:
        'This bare `return` skips the assertions after it and the test still passes: assert what it guards against, use it.skipIf, or name the reason in a `// test-guard: <reason>` comment.',
    },
  },
  create(context) {
    const { sourceCode } = context;
    const visitorKeys = sourceCode.visitorKeys;
    /** A `// test-guard: <reason>` comment on the node's first line or the line above it. */
    const annotated = (node) =>
      sourceCode.getAllComments().some((comment) => GUARD_COMMENT.test(comment.value) && comment.loc.end.line >= node.loc.start.line - 1 && comment.loc.start.line <= node.loc.start.line);
    const hasAssertion = (node) => [...nodesUnder(node, visitorKeys)].some(isAssertion);

    return {
      IfStatement(node) {
        // Judged once per chain, at its head: `if … else if …` with no final else skips its claims on some path.
        if (node.parent.type === 'IfStatement' && node.parent.alternate === node) return;
        const branches = [];
        let link = node;
        while (link && link.type === 'IfStatement') {
          branches.push(link.consequent);
          link = link.alternate;
        }
        if (link) return;
        if (!branches.some(hasAssertion) || annotated(node)) return;
        // `if (c) { expect(…); continue; } expect(…)`: the rest of the block is the else, and it asserts too.
        if (branches.every(leaves) && statementsAfter(node).some(hasAssertion)) return;
        context.report({ node, messageId: 'conditionalAssertion' });
      },
      LogicalExpression(node) {
        if (hasAssertion(node.right) && !annotated(node)) context.report({ node, messageId: 'conditionalAssertion' });
      },
      CallExpression(node) {
        const body = testBody(node);
        if (!body) return;
        const returns = [...nodesUnder(body.body, visitorKeys, false)].filter((child) => child.type === 'ReturnStatement' && !child.argument);
        if (!returns.length) return;
        const assertions = [...nodesUnder(body.body, visitorKeys)].filter(isAssertion);
        for (const early of returns) {
          // Its own branch: the innermost block (or if branch) that holds it; an assertion made there first is not skipped.
          const branch = early.parent.type === 'BlockStatement' ? early.parent : early;
          const assertedFirst = assertions.some((assertion) => assertion.range[0] >= branch.range[0] && assertion.range[1] <= early.range[0]);
          const skipped = assertions.some((assertion) => assertion.range[0] > early.range[1]);
          if (skipped && !assertedFirst && !annotated(early)) context.report({ node: early, messageId: 'returnBeforeAssertion' });
        }
      },
    };
  },
};

export default { meta: { name: 'test-guards' }, rules: { 'no-silent-pass': noSilentPass } };
