import type { Role, User } from '@reelsmith/contracts';
import type { UserRow } from '../db/schema.js';

/** `request.user` on authenticated routes. */
export interface AuthUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  createdAt: string;
  /** Set when signed in with a bearer token. */
  sessionId: string | null;
  /** Set when authenticated with an API key. */
  apiKeyId: string | null;
  hasPassword: boolean;
  /** 'embed' for a session minted for the embedded studio: only routes marked `embed` accept it. */
  scope: 'full' | 'embed';
  emailVerified: boolean;
}

export function toAuthUser(row: UserRow, via: { sessionId?: string; apiKeyId?: string; scope?: 'full' | 'embed' }): AuthUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    createdAt: row.created_at,
    sessionId: via.sessionId ?? null,
    apiKeyId: via.apiKeyId ?? null,
    hasPassword: row.password_hash !== null,
    scope: via.scope ?? 'full',
    emailVerified: row.email_verified_at !== null,
  };
}

/** The user as the API shows it. */
export function toPublicUser(user: Pick<UserRow, 'id' | 'email' | 'name' | 'role' | 'created_at' | 'email_verified_at'> | AuthUser): User {
  const createdAt = 'createdAt' in user ? user.createdAt : user.created_at;
  const emailVerified = 'emailVerified' in user ? user.emailVerified : user.email_verified_at !== null;
  return { id: user.id, name: user.name, email: user.email, role: user.role, createdAt, emailVerified };
}
