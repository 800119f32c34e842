/**
 * Component tests (jsdom) wait up to 5 s for what they find (`findBy…`, `waitFor`) instead of
 * testing-library's 1 s: on a loaded two-core CI machine a lazily loaded page's first render took
 * 1.3 s (developer-tab's first test). A file that needs longer configures its own. Node tests load
 * nothing here.
 */
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 5_000 });
}

export {};
