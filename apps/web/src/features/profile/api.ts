import { post } from '../../lib/http.ts';

export interface ProfileInput {
  name: string;
  phone: string;
  company: string;
  avatarUrl: string | null;
}

export interface PasswordChange {
  oldPassword: string;
  password: string;
  confirmPassword: string;
}

export const profileApi = {
  save: (input: ProfileInput) => post('/admin/admin/saveProfile', input),
  /** Plain text: the server checks the rules; it ends every other session of the user. */
  changePassword: (change: PasswordChange) => post('/admin/admin/changePassword', change),
};
