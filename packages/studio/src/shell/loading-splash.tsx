/** The full-screen splash with the logo while authentication initialises. Its own module so hosts without the shell (the popup) need no router. */
export function LoadingSplash() {
  return (
    <div className="rs-splash" role="status" aria-label="Loading Reelsmith">
      <div className="rs-splash__logo">
        <svg viewBox="0 0 48 48" width="72" height="72" aria-hidden="true">
          <defs>
            <linearGradient id="rs-splash-gradient" x1="0" y1="0" x2="1" y2="1">
              <stop offset="0" stopColor="#8b5cf6" />
              <stop offset="1" stopColor="#ec4899" />
            </linearGradient>
          </defs>
          <rect x="2" y="2" width="44" height="44" rx="12" fill="url(#rs-splash-gradient)" />
          <path d="M19 15.5v17l14-8.5z" fill="#fff" />
        </svg>
      </div>
      <p className="rs-splash__name">Reelsmith</p>
      <div className="rs-splash__bar" aria-hidden="true">
        <span />
      </div>
    </div>
  );
}
