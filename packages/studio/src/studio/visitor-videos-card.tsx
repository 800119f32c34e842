import { useNavigate } from 'react-router';

/** What visitors see in place of their videos. */
export function VisitorVideosCard() {
  const navigate = useNavigate();
  return (
    <section className="rs-card rs-recent" aria-labelledby="rs-visitor-videos-title">
      <h2 id="rs-visitor-videos-title" className="rs-section-title">
        Your videos
      </h2>
      <div className="rs-recent__empty">
        <p>Sign up to generate your first video free. No credit card required.</p>
        {/* A button, not a link: the side navigation already has the Sign Up Free link. */}
        <button type="button" className="rs-button rs-button--primary" onClick={() => navigate('/login')}>
          Sign Up Free
        </button>
      </div>
    </section>
  );
}
