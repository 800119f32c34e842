import { writeFileSync } from 'node:fs';
import type { ImageProvider } from '../providers/types.js';

/** Pictures for tests where they do not matter: a placeholder file stands in for each. */
export const placeholderImages: ImageProvider = {
  name: 'placeholder',
  health: async () => ({ name: 'placeholder', status: 'healthy', details: '' }),
  generateImage: async (request) => {
    writeFileSync(request.outputPath, 'jpg');
    return { imagePath: request.outputPath };
  },
};
