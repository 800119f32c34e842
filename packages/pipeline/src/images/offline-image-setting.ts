/** The land a scene is set in and its light: what a prompt names, or what its subject belongs in. */
export type Terrain = 'mountains' | 'hills' | 'city' | 'forest' | 'sea' | 'desert';
export type TimeOfDay = 'day' | 'golden' | 'dawn' | 'dusk' | 'night' | 'storm';
