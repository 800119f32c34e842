import { ACCOUNT_MESSAGES, MESSAGES, REGISTRATION_SUCCESS_TOAST_MS } from '@reelsmith/contracts';
import * as Tabs from '@radix-ui/react-tabs';
import { useState } from 'react';
import { toast } from '../toaster.js';
import { useNavigate, useSearchParams } from 'react-router';
import { GoogleButton, useGoogleIdentity } from './use-google-identity.js';
import { AccountCard, ForgotPasswordPanel } from './account-recovery.js';
import { SignInForm } from './sign-in-form.js';
import { SignUpForm } from './sign-up-form.js';
import './login.css';

type Tab = 'signin' | 'signup';

function Divider() {
  return (
    <div className="rs-divider" role="separator">
      <span>or continue with email</span>
    </div>
  );
}

/** The login screen: Sign In (tab 0) and Sign Up (tab 1) on a gradient page. */
export function LoginPage() {
  const navigate = useNavigate();
  const gis = useGoogleIdentity({ oneTap: true });
  // ?tab=signup opens on Sign Up (the extension's "Sign up free" link).
  const [searchParams] = useSearchParams();
  const [tab, setTab] = useState<Tab>(searchParams.get('tab') === 'signup' ? 'signup' : 'signin');
  // Bumped on every tab switch so both forms remount empty (spec: switching tabs resets both forms).
  const [formGeneration, setFormGeneration] = useState(0);
  const [prefillEmail, setPrefillEmail] = useState('');
  const [forgotPassword, setForgotPassword] = useState(false);

  const switchTo = (next: Tab) => {
    if (next === tab) return;
    setPrefillEmail('');
    setForgotPassword(false);
    setFormGeneration((g) => g + 1);
    setTab(next);
  };

  const onRegistered = (email: string) => {
    toast.success(MESSAGES.accountCreated, { duration: REGISTRATION_SUCCESS_TOAST_MS });
    toast(ACCOUNT_MESSAGES.verificationSent(email), { duration: 8000 });
    setPrefillEmail(email);
    setFormGeneration((g) => g + 1);
    setTab('signin');
  };

  return (
    <AccountCard title="Reelsmith" tagline="AI-powered video generation for social media">
      <Tabs.Root value={tab} onValueChange={(value) => switchTo(value as Tab)} className="rs-tabs">
        <Tabs.List className="rs-tabs__list" aria-label="Sign in or sign up">
          <Tabs.Trigger value="signin" className="rs-tabs__trigger">
            Sign In
          </Tabs.Trigger>
          <Tabs.Trigger value="signup" className="rs-tabs__trigger">
            Sign Up
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="signin" className="rs-tabs__content">
          {forgotPassword ? (
            <ForgotPasswordPanel initialEmail={prefillEmail} onBack={() => setForgotPassword(false)} />
          ) : (
            <SignInForm
              key={`signin-${formGeneration}`}
              initialEmail={prefillEmail}
              // After sign-in the destination is the studio at /.
              onSignedIn={() => navigate('/', { replace: true })}
              header={
                gis ? (
                  <>
                    <GoogleButton gis={gis} text="continue_with" />
                    <Divider />
                  </>
                ) : null
              }
              footer={
                <>
                  <p className="rs-login__forgot">
                    <button type="button" className="rs-link-button" onClick={() => setForgotPassword(true)}>
                      Forgot password?
                    </button>
                  </p>
                  <p className="rs-login__switch">
                    Don't have an account?{' '}
                    <button type="button" className="rs-link-button" onClick={() => switchTo('signup')}>
                      Sign up
                    </button>
                  </p>
                </>
              }
            />
          )}
        </Tabs.Content>
        <Tabs.Content value="signup" className="rs-tabs__content">
          <SignUpForm
            key={`signup-${formGeneration}`}
            onRegistered={onRegistered}
            header={
              gis ? (
                <>
                  <GoogleButton gis={gis} text="signup_with" />
                  <Divider />
                </>
              ) : null
            }
            footer={
              <p className="rs-login__switch">
                Already have an account?{' '}
                <button type="button" className="rs-link-button" onClick={() => switchTo('signin')}>
                  Sign in
                </button>
              </p>
            }
          />
        </Tabs.Content>
      </Tabs.Root>
      <p className="rs-login__note">Your first video is free with signup. No credit card required.</p>
    </AccountCard>
  );
}
