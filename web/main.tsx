import { render } from 'preact';
import { App } from './app.js';
import { onLinkClick } from './lib/router.js';
import { restore } from './lib/session.js';
import './app.css';

document.addEventListener('click', onLinkClick);
void restore();
render(<App />, document.getElementById('app')!);
