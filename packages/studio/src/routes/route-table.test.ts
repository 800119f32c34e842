import { describe, expect, it } from 'vitest';
import { resolveRoute, titleForPath, type Viewer } from './route-table.js';

const visitor: Viewer = { signedIn: false };
const user: Viewer = { signedIn: true, role: 'user' };
const admin: Viewer = { signedIn: true, role: 'admin' };

describe('route table', () => {
  it.each([
    ['/', user, { screen: 'studio' }],
    ['/studio', user, { screen: 'studio' }],
    ['/generate', user, { screen: 'studio' }],
    ['/videos', user, { screen: 'videos' }],
    ['/batch', user, { screen: 'batch' }],
    ['/batch/', user, { screen: 'batch' }],
    ['/files', user, { screen: 'videos' }],
    ['/videos/abc-123/edit', user, { screen: 'storyboard' }],
    ['/videos/abc-123/edit/', user, { screen: 'storyboard' }],
    ['/videos/abc-123', user, { redirect: '/' }],
    ['/settings', user, { screen: 'settings' }],
    ['/pricing', user, { screen: 'pricing' }],
    ['/admin', user, { redirect: '/' }],
    ['/admin/users', user, { redirect: '/' }],
    ['/admin/health', user, { redirect: '/' }],
    ['/login', user, { redirect: '/' }],
    ['/anything/else', user, { redirect: '/' }],
    ['/admin', admin, { screen: 'adminDashboard' }],
    ['/admin/users', admin, { screen: 'userManagement' }],
    ['/admin/health', admin, { screen: 'systemHealth' }],
    ['/videos/', admin, { screen: 'videos' }],
    ['/login', visitor, { screen: 'login' }],
    ['/pricing', visitor, { screen: 'pricing' }],
    ['/', visitor, { screen: 'studio' }],
    ['/videos', visitor, { screen: 'studio' }],
    ['/batch', visitor, { screen: 'studio' }],
    ['/settings', visitor, { screen: 'studio' }],
    ['/admin', visitor, { screen: 'studio' }],
    ['/nowhere', visitor, { screen: 'studio' }],
  ] as const)('%s for %o', (path, viewer, expected) => {
    expect(resolveRoute(path, viewer)).toEqual(expected);
  });

  it('titles each path', () => {
    expect(titleForPath('/login', visitor)).toBe('Login');
    expect(titleForPath('/generate', user)).toBe('Video Studio');
    expect(titleForPath('/files', user)).toBe('My Videos');
    expect(titleForPath('/settings', user)).toBe('Settings');
    expect(titleForPath('/pricing', visitor)).toBe('Pricing');
    expect(titleForPath('/admin', admin)).toBe('Admin Dashboard');
    expect(titleForPath('/admin/users', admin)).toBe('User Management');
    expect(titleForPath('/admin/health', admin)).toBe('System Health');
  });
});
