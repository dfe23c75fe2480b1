import { boot } from './ui/boot'
import './ui/app.css'

void boot(document.getElementById('root')!, window.location)
