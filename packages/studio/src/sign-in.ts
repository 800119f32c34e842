// The e-mail sign-in form on its own entry: the extension popup shows it only when signed out, so it
// loads it on demand instead of in its first load (popup JS ≤ 100 KB gzip).
export { SignInForm } from './login/sign-in-form.js';
